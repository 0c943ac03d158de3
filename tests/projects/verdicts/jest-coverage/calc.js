function add(a, b) {
  return a + b;
}

function neverTested(a) {
  if (a > 0) {
    return "positive";
  }
  return "other";
}

module.exports = { add, neverTested };
