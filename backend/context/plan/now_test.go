package plan_test

import "time"

var fixedNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
