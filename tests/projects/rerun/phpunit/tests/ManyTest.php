<?php
namespace Tests;

use PHPUnit\Framework\TestCase;

final class ManyTest extends TestCase
{
    /** @dataProvider many */
    public function testMany(int $n): void
    {
        $this->assertGreaterThanOrEqual(0, $n);
    }

    public function many(): array
    {
        return array_map(function (int $n): array { return [$n]; }, range(0, 19));
    }
}
