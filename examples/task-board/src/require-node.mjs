// Mastra needs Node.js >= 22.13. The floor is checked here rather than in package.json `engines`, which would make
// every pnpm command of the workspace warn on Node 20.19, the floor the libraries themselves support.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(
    `The task board needs Node.js >= 22.13 (Mastra's floor); this is ${process.version}. ` +
      "Run it with a newer Node, e.g. the one `sh scripts/install-node.sh 24` installs from the repository root.",
  );
  process.exit(1);
}
