export {};
//# sourceMappingURL=context.js.map