package booking

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/display"
)

// TestMoneyAsDisplayWritesIt: the domain's own messages (DEPOSIT_TERMS)
// write an amount as the pages do, so that a person reads one figure.
func TestMoneyAsDisplayWritesIt(t *testing.T) {
	tests := []struct {
		cents    int
		currency string
	}{
		{4900, "usd"}, {5, "usd"}, {0, "usd"}, {123456, "usd"}, {2500, "eur"}, {99, "cad"},
	}
	for _, tt := range tests {
		t.Run(tt.currency, func(t *testing.T) {
			if got, want := money(tt.cents, tt.currency), display.Money(tt.cents, tt.currency); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
