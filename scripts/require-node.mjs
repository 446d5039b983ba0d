// npm scripts must run on the Node 22 that the `node` devDependency provides (MikroORM 7 needs >= 22.17).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 17)) {
  console.error(
    `comply needs Node >= 22.17 but this is ${process.version}.\n` +
      'Run it through npm (npm start / npm test), which puts the bundled Node 22 first on PATH,\n' +
      'or reinstall without --ignore-scripts so the `node` devDependency can install itself.',
  );
  process.exit(1);
}
