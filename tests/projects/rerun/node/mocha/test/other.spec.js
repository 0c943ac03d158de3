it("other passes", function () {});
