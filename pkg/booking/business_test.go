package booking

import "testing"

func TestLocalTextIn(t *testing.T) {
	tests := []struct {
		name string
		text LocalText
		lang string
		want string
	}{
		{"English", LocalText{EN: "Leak repair", ES: "Reparación de fugas"}, "en", "Leak repair"},
		{"Spanish", LocalText{EN: "Leak repair", ES: "Reparación de fugas"}, "es", "Reparación de fugas"},
		{"Spanish not written", LocalText{EN: "Leak repair"}, "es", "Leak repair"},
		{"English not written", LocalText{ES: "Reparación de fugas"}, "en", "Reparación de fugas"},
		{"another language", LocalText{EN: "Leak repair", ES: "Reparación de fugas"}, "fr", "Leak repair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.text.In(tt.lang); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
