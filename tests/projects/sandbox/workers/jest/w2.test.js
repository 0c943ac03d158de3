test("slow enough for workers 2", async () => { await new Promise(r => setTimeout(r, 1200)); expect(process.pid).toBeGreaterThan(0); });
