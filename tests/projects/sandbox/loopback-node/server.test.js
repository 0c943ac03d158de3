// Four tests, each against a server of its own on the loopback, as
// supertest does with an express app; a server is closed only once it
// answered, so a suite whose connections are refused never exits.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');

function get(port) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

for (const n of [1, 2, 3, 4]) {
  test(`answers ${n}`, async () => {
    const server = http.createServer((req, res) => res.end(`hello ${n}`));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const body = await get(server.address().port);
    server.close();
    assert.strictEqual(body, `hello ${n}`);
  });
}
