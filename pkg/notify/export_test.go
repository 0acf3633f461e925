package notify

import (
	"context"
	"time"
)

// SetSleep replaces the Notifier's wait for a lapsing claim.
func SetSleep(n *Notifier, sleep func(ctx context.Context, d time.Duration) error) { n.sleep = sleep }
