package bytesize

import (
	"fmt"
	"testing"
)

func TestFormatPicksTheUnit(t *testing.T) {
	tests := []struct {
		n    float64
		want string
	}{
		{0, "0 bytes"},
		{999, "999 bytes"},
		{1000, "1.0 kB"},
		{16_300, "16.3 kB"},
		{1 << 30, "1.1 GB"},
		{25.8e9, "25.8 GB"},
		{2.5e13, "25 TB"},
	}
	for _, tc := range tests {
		if got := Format(tc.n); got != tc.want {
			t.Errorf("Format(%v): got %q, want %q", tc.n, got, tc.want)
		}
	}
}

func ExampleFormat() {
	fmt.Println(Format(int64(133_000_000) * 12))
	// Output: 1.6 GB
}
