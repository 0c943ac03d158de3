<?php
namespace Tests;

require_once __DIR__ . '/Flaky.php';

use PHPUnit\Framework\TestCase;

final class BigTest extends TestCase
{
    public function testBigNumbers(): void
    {
        $this->assertSame(mode() === 'fail' ? 1 : 2000000, 1000000 * 2);
    }
}
