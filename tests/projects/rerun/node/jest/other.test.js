test("other passes", () => {});
