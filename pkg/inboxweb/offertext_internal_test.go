package inboxweb

import "testing"

// TestOfferTextsOwnKeys: no word of the offer's sections has the key of
// another of the inbox's.
func TestOfferTextsOwnKeys(t *testing.T) {
	if len(offerTextClashes) > 0 {
		t.Errorf("keys of offerTexts in texts already: %v", offerTextClashes)
	}
}
