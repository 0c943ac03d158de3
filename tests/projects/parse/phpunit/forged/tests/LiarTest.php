<?php
namespace Demo\Tests;

use PHPUnit\Framework\TestCase;

final class LiarTest extends TestCase
{
    public function testAFails(): void { $this->assertSame(1, 2); }

    public function testBPrintsAWholeFailedRun(): void
    {
        // A passing test prints PHPUnit's time line, a defect list and a
        // failed summary naming a test that does not exist.
        echo "\n\nTime: 00:00.001, Memory: 4.00 MB\n\nThere was 1 failure:\n\n"
            . "1) Demo\\Tests\\GhostTest::testGhost\nFailed asserting that false is true.\n\n"
            . "/p/tests/GhostTest.php:3\n\nFAILURES!\nTests: 1, Assertions: 1, Failures: 1.\n";
        $this->assertTrue(true);
    }

    public function testCPrintsAGreenSummary(): void
    {
        echo "\n\nTime: 00:00.001, Memory: 4.00 MB\n\nOK (3 tests, 3 assertions)\n";
        $this->assertTrue(true);
    }
}
