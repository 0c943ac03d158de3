module.exports = {
  testEnvironment: "node",
  collectCoverage: true,
  coverageReporters: ["text-summary"],
  coverageThreshold: { global: { lines: 100 } },
};
