package lambdaenv

import (
	"fmt"
	"strconv"
	"strings"
)

// PersonalDataDays reads PERSONAL_DATA_DAYS, the sweeper's: how many days
// after a request ended its personal details are erased
// (booking.Config.PersonalDataDays). Unset is 0, the default; a value
// that is not a whole number fails at start, and booking.New refuses one
// below its minimum.
func PersonalDataDays(getenv func(string) string) (int, error) {
	v := strings.TrimSpace(getenv("PERSONAL_DATA_DAYS"))
	if v == "" {
		return 0, nil
	}
	days, err := strconv.Atoi(v)
	if err != nil || days < 1 {
		return 0, fmt.Errorf("PERSONAL_DATA_DAYS must be a whole number of days, got %q", v)
	}
	return days, nil
}
