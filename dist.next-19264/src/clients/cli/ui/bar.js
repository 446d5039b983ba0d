/** A fraction (0–1) as a bar of block characters: `bar(0.5, 4)` → `██░░`. */
export const bar = (value, width = 20) => {
    const filled = Math.round((value ?? 0) * width);
    return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
};
//# sourceMappingURL=bar.js.map