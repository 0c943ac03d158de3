// Fails on its first try and passes on the retry: jest.retryTimes hides it
// (its console says so only with logErrorsBeforeRetry).
jest.retryTimes(2, { logErrorsBeforeRetry: true });

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
