// A suite that cannot even be parsed.
describe('syntax', () => {
  test('never runs', () => {
    expect(1).toBe(1);
  };
});
