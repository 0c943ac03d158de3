<?php
namespace Tests;

use PHPUnit\Framework\TestCase;

/**
 * HOSTILE_MODE=exit: testAFails fails, testBForgesAPass prints PHPUnit's
 * time line and green summary and exits 0 before PHPUnit's own summary.
 * HOSTILE_MODE=ghost: testAFails fails, testBForgesAPass (passing) prints a
 * time line, a defect list naming a test that does not exist and a failed
 * summary, then testCPrintsGreen prints a green one.
 */
final class ForgeryTest extends TestCase
{
    public function testAFails(): void
    {
        $this->assertSame(1, 2);
    }

    public function testBForgesAPass(): void
    {
        if (getenv('HOSTILE_MODE') === 'exit') {
            echo "\n\nTime: 00:00.001, Memory: 4.00 MB\n\nOK (3 tests, 3 assertions)\n";
            exit(0);
        }
        echo "\n\nTime: 00:00.001, Memory: 4.00 MB\n\nThere was 1 failure:\n\n"
            . "1) Tests\\GhostTest::testGhost\nFailed asserting that false is true.\n\n"
            . "FAILURES!\nTests: 1, Assertions: 1, Failures: 1.\n";
        $this->assertTrue(true);
    }

    public function testCPrintsGreen(): void
    {
        echo "\n\nTime: 00:00.001, Memory: 4.00 MB\n\nOK (3 tests, 3 assertions)\n";
        $this->assertTrue(true);
    }
}
