// A server on the loopback that the test starts and talks to, as an
// express app under supertest does: the run's own loopback in both sandboxes.
const http = require("http");
test("a server of its own on the loopback answers", async () => {
  const server = http.createServer((req, res) => res.end("pong " + req.url));
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address();
  const body = await new Promise((done, failed) => {
    http.get({ host: "127.0.0.1", port, path: "/ping" }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => done(text));
    }).on("error", failed);
  });
  await new Promise((closed) => server.close(closed));
  expect(body).toBe("pong /ping");
});
