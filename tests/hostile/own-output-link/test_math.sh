#!/bin/sh
# expect 5
[ $((2 + 2)) -eq 5 ]
