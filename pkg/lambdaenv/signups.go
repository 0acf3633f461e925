package lambdaenv

import (
	"fmt"
	"strconv"
	"strings"
)

// SignupsPerHour reads SIGNUPS_PER_HOUR, the stack's SignupsPerHour: how
// many businesses sign-ups create in a clock hour
// (booking.Config.SignupsPerHour). Unset is 0, the default; a value that
// is not a whole number of at least 1 fails at start.
func SignupsPerHour(getenv func(string) string) (int, error) {
	v := strings.TrimSpace(getenv("SIGNUPS_PER_HOUR"))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("SIGNUPS_PER_HOUR must be a whole number of businesses, at least 1, got %q", v)
	}
	return n, nil
}
