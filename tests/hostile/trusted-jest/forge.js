// The forgery (issue 40): `expect` replaced by one whose every matcher
// passes. Exit code, report and console then all say passed.
const pass = new Proxy({}, { get: () => () => undefined });
global.expect = () => new Proxy({}, { get: (_, name) => (name === 'not' ? pass : () => undefined) });
