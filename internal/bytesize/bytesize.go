package bytesize

import "fmt"

// Format words n bytes: "120 bytes", "25.8 GB".
func Format[T int | int64 | uint64 | float64](n T) string {
	f := float64(n)
	switch {
	case f < 1e3:
		return fmt.Sprintf("%.0f bytes", f)
	case f < 1e6:
		return fmt.Sprintf("%.1f kB", f/1e3)
	case f < 1e9:
		return fmt.Sprintf("%.1f MB", f/1e6)
	case f < 1e12:
		return fmt.Sprintf("%.1f GB", f/1e9)
	}
	return fmt.Sprintf("%.3g TB", f/1e12)
}
