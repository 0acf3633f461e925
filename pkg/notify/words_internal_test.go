package notify

import "testing"

func TestDefang(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"Ana Ruiz", "Ana Ruiz"},
		{"http://evil.example/pay", "hxxp://evil[.]example/pay"},
		{"HTTPS://Evil.Example", "HxxPS://Evil[.]Example"},
		{"pay at https://a.evil.example/x?y=1.", "pay at hxxps://a[.]evil[.]example/x?y=1."},
		{"evil.example/pay", "evil[.]example/pay"},
		{"www.evil.co.uk", "www[.]evil[.]co[.]uk"},
		{"ana@evil.example", "ana@evil[.]example"},
		{"ftp://files.evil.example", "ftp[://]files[.]evil[.]example"},
		{"javascript://x", "javascript[://]x"},
		{"xhttp://a", "xhttp[://]a"},
		{"1.evil.example", "1[.]evil[.]example"},
		{"my-site.example", "my-site[.]example"},
		{"evil\u3002example", "evil[.]example"},
		{"evil\uff0eexample", "evil[.]example"},
		{"пример.рф", "пример[.]рф"},
		{"3.5 inches, 2.0", "3.5 inches, 2.0"},
		{"It leaks. Please come.", "It leaks. Please come."},
		{"Mr. Smith", "Mr. Smith"},
		{"time: 10:30", "time: 10:30"},
		{"...", "..."},
		{".com", ".com"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := defang(tt.in); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheirWords(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"none", "", ""},
		{"spaces only", " \n ", ""},
		{"one line", "Kitchen sink drains slowly.", "Label:\n> Kitchen sink drains slowly."},
		{"lines and an empty one", "Sink:\n\nslow", "Label:\n> Sink:\n>\n> slow"},
		{"CR LF and a lone CR", "a\r\nb\rc", "Label:\n> a\n> b\n> c"},
		{"a link", "Your deposit failed: pay at http://evil.example/pay", "Label:\n> Your deposit failed: pay at hxxp://evil[.]example/pay"},
		{"control characters stored before the rules", "a\x1b[2Jb\u202ec\u2028d", "Label:\n> a [2Jb c\n> d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := theirWords("Label:", tt.in); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheirLine(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Ana Ruiz", "Ana Ruiz"},
		{" Ana\n\nYour deposit failed: pay at http://evil.example/pay ", "Ana  Your deposit failed: pay at hxxp://evil[.]example/pay"},
		{"Ana\x1b]8;;http://evil.example\x07", "Ana ]8;;hxxp://evil[.]example"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := theirLine(tt.in); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
