// Ends the process while importing, so the loader child dies without writing a result.
console.error("exits.js: shutting down before anything is exported");
process.exit(3);
