package pages

// Texts returns the texts of lang, for the tests.
func Texts(lang string) map[string]string { return texts[lang] }
