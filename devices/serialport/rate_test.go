package serialport_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tarm/serial"

	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/serialport"
)

// TestRatesAreTheRatesTheLineCanBeSetTo: tarm/serial sets a line to each
// of Rates and to no rate beside one, and Open refuses those with
// ErrRate, naming the rates, before it touches the line.
func TestRatesAreTheRatesTheLineCanBeSetTo(t *testing.T) {
	p, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	opens := func(baud int) bool {
		l, err := serial.OpenPort(&serial.Config{Name: p.Path, Baud: baud, ReadTimeout: time.Millisecond})
		if err == nil {
			l.Close()
		}
		return err == nil
	}
	for i, r := range serialport.Rates {
		if i > 0 && r <= serialport.Rates[i-1] {
			t.Errorf("Rates not ascending at %d", r)
		}
		if !opens(r) {
			t.Errorf("tarm/serial refuses %d baud, one of Rates", r)
		}
		if err := serialport.CheckRate(r); err != nil {
			t.Errorf("CheckRate(%d): %v", r, err)
		}
		for _, beside := range []int{r - 1, r + 1} {
			if opens(beside) {
				t.Errorf("tarm/serial sets %d baud, which Rates lacks", beside)
			}
		}
	}
	for _, baud := range []int{-1, 0, 1, 12345} {
		_, err := serialport.Open(p.Path, baud, time.Millisecond)
		if !errors.Is(err, serialport.ErrRate) || !strings.Contains(err.Error(), "115200, 230400") {
			t.Errorf("Open at %d baud: %v, want ErrRate naming the rates", baud, err)
		}
	}
}

// TestNotADeviceSaysWhatIsThereInstead: a port that is there and is no
// character device is named for what it is; one that is not there (a
// glove plugged in later) and a device are not a mistake.
func TestNotADeviceSaysWhatIsThereInstead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for path, want := range map[string]string{
		file:                          "a regular file",
		dir:                           "a directory",
		sock:                          "a socket",
		filepath.Join(dir, "ttyUSB7"): "",
		"/dev/null":                   "",
	} {
		if got := serialport.NotADevice(path); got != want {
			t.Errorf("NotADevice(%s) = %q, want %q", path, got, want)
		}
	}
}
