package export

import "slices"

// Words and WordKeys expose the CSV's texts to the tests.
func Words(lang string) map[string]string { return words[lang] }

func WordKeys(lang string) []string {
	var keys []string
	for k := range words[lang] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
