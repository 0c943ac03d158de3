const { it } = require("node:test");

it("other passes", () => {});
