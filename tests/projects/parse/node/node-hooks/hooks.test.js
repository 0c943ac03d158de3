// A failing `before` hook of a suite, a failing `beforeEach` of another,
// and a failing `after` of a third: node names each failure by the hook's
// suite and the hook.
const { describe, it, before, beforeEach, after } = require('node:test');
const assert = require('node:assert');

describe('setup fails', () => {
  before(() => {
    throw new Error('database unreachable');
  });
  it('never runs', () => {});
});

describe('each fails', () => {
  beforeEach(() => {
    assert.strictEqual(1, 2);
  });
  it('first', () => {});
});

describe('teardown fails', () => {
  after(() => {
    throw new Error('cleanup failed');
  });
  it('passes', () => {});
});

it('top level passes', () => {});
