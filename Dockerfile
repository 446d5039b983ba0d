# One image for the daemon and the worker; docker-compose.yml picks the command.
# Build stage: every dependency, then the compiled JavaScript in dist/ (npm run build).
FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

# Run stage: production dependencies and dist/ only, run by plain node as an unprivileged user.
# bin/comply execs node, so node receives SIGTERM itself (compose adds an init with `init: true`).
FROM node:22-bookworm-slim
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin/comply ./bin/comply
# `comply` on PATH, so CI jobs that run in this image (README: the compliance gate) call it by name.
ENV PATH="/app/bin:${PATH}"
RUN mkdir -p /app/data /app/models && chown node:node /app/data /app/models
USER node
EXPOSE 8080
ENTRYPOINT ["/app/bin/comply"]
CMD ["serve"]
