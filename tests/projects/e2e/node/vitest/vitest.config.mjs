export default { test: { cache: false } };
