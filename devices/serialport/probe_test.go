package serialport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var fastProbe = ProbeOpts{Baud: 115200, Reply: 150 * time.Millisecond}

// unreached is an identify for probes that must fail before it is asked.
func unreached(tb testing.TB) Identify {
	return func(Conn, time.Duration) (string, error) {
		tb.Error("identify was called")
		return "", nil
	}
}

func TestProbeFailuresNameThePort(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "ttyUSB9")
	notTTY := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notTTY, nil, 0o600)
	for _, tc := range []struct{ path, says string }{
		{missing, "no such file"},
		{notTTY, "is not a terminal"},
	} {
		_, err := Probe(tc.path, fastProbe, unreached(t))
		if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error naming it and saying %q", tc.path, err, tc.says)
		}
	}
}

// A port whose driver call never returns is given up on at the limit.
func TestProbeGivesUpOnAHungPort(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	start := time.Now()
	_, err := within(50*time.Millisecond, "/dev/ttyUSB0", func() (string, error) {
		<-block
		return "", nil
	})
	if !errors.Is(err, ErrHung) || !strings.Contains(err.Error(), "/dev/ttyUSB0") {
		t.Fatalf("got %v, want ErrHung naming the port", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("gave up after %v, before the limit", d)
	}
	const want = "CyberGlove (22 sensors, left)"
	if u, err := within(time.Minute, "p", func() (string, error) { return want, nil }); err != nil || u != want {
		t.Errorf("a probe that returned: got %q %v", u, err)
	}
}
