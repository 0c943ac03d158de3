<?php
namespace Tests;

const MODE_DEFAULT = 'pass';

function mode(): string
{
    $mode = getenv('TESTGATE_FIXTURE');
    return $mode === false ? MODE_DEFAULT : $mode;
}

/** Counts this project's runs; testgate puts the tree back between attempts and numbers them. */
function run_number(): int
{
    $counter = dirname(__DIR__) . '/.flaky-count';
    $runs = (is_file($counter) ? (int) file_get_contents($counter) : 0) + 1;
    file_put_contents($counter, (string) $runs);
    $attempt = getenv('TESTGATE_ATTEMPT');
    return $runs + ($attempt === false ? 1 : (int) $attempt) - 1;
}
