<?php
namespace Tests;

require_once __DIR__ . '/Flaky.php';

use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAdds(): void
    {
        $this->assertSame(4, 2 + 2);
    }

    public function testAddsNegative(): void
    {
        $this->assertSame(mode() === 'fail' ? 0 : -1, 1 + -2);
    }

    public function testSometimes(): void
    {
        if (mode() === 'flaky') {
            $this->assertFalse(run_number() % 2 === 1, 'odd-numbered run');
        }
        $this->assertTrue(true);
    }

    public function testHangs(): void
    {
        if (mode() === 'hang') {
            sleep(3600);
        }
        $this->assertTrue(true);
    }
}
