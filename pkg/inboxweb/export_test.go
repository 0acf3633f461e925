package inboxweb

// Texts returns the texts of lang, for the tests.
func Texts(lang string) map[string]string { return texts[lang] }

// SafeNext is safeNext, for the tests.
var SafeNext = safeNext

// ParseClock and ShowClock are the hours form's reading and writing of a
// time.
var ParseClock, ShowClock = parseClock, showClock
