/** Shapes of the framework library shipped in fixtures/frameworks and of imported catalogs. */
export {};
//# sourceMappingURL=framework.types.js.map