// No __snapshots__/ is committed: under CI=true jest must fail this test
// ("New snapshot was not written") instead of writing one and passing.
function greeting(name) {
  return { text: `hello, ${name}`, length: name.length };
}

test("greeting matches its snapshot", () => {
  expect(greeting("testgate")).toMatchSnapshot();
});

test("greeting has the name", () => {
  expect(greeting("x").text).toBe("hello, x");
});
