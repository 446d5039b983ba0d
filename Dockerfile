# One image for the daemon and the worker; docker-compose.yml picks the command.
FROM node:22-bookworm-slim
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
EXPOSE 8080
ENTRYPOINT ["/app/bin/comply"]
CMD ["serve"]
