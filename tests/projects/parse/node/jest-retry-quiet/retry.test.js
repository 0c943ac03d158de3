// Fails on its first try and passes on the retry: jest.retryTimes without
// logErrorsBeforeRetry prints nothing of the failed try; only jest's JSON
// report records it (`invocations`, `retryReasons`).
jest.retryTimes(2);

let tries = 0;
describe("network", () => {
  test("fails once", () => {
    tries += 1;
    expect(tries).toBeGreaterThan(1);
  });
});

test("steady", () => {
  expect(1).toBe(1);
});
