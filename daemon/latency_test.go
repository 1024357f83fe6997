package daemon

import (
	"bytes"
	"encoding/binary"
	"net"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/sim"
)

// BenchmarkLatencyPty measures glove byte in -> OSC datagram out on the
// demo scene: an emulated CyberGlove streams over a pty at 100 Hz, the
// daemon (count_tris off, as in the demo) publishes, a receiver on loopback
// takes each frame bundle. The latency of a frame is its arrival at the
// receiver minus its timetag, which is when the serial bytes completing
// the sample arrived at the driver. Reported: p50 and p99 in microseconds,
// and the daemon process's heap allocations per frame in steady state.
func BenchmarkLatencyPty(b *testing.B) {
	link := filepath.Join(b.TempDir(), "glove")
	emulatortest.Start(b, emulator.Opts{Sensors: 22, Right: true,
		Source: func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, t, s) }}, link,
		emulator.Hangup{})
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer rx.Close()
	_, done, stop := startDaemon(b, 0, "lat.toml", hand("right", "cyberglove", quoted("port", link), demoWrist)+builtinScene(rx.LocalAddr().String()))
	lat := make([]time.Duration, 0, 1<<16)
	frameAddr := []byte("/gloved/right/frame\x00")
	buf := make([]byte, 65536)
	frames := 0
	var m0, m1 runtime.MemStats
	b.ResetTimer()
	for frames < max(b.N, 300) {
		rx.SetReadDeadline(time.Now().Add(2 * time.Second))
		n, _, err := rx.ReadFrom(buf)
		now := time.Now()
		if err != nil {
			b.Fatal(err)
		}
		// Read the bundle by hand (no decoder allocations in this
		// process): "#bundle\0", the timetag, the first element's size,
		// then its address.
		pk := buf[:n]
		if n < 40 || !bytes.HasPrefix(pk, []byte("#bundle\x00")) || !bytes.HasPrefix(pk[20:], frameAddr) {
			continue
		}
		frames++
		if frames == 50 {
			runtime.ReadMemStats(&m0)
		}
		if frames > 50 && len(lat) < cap(lat) {
			tt := binary.BigEndian.Uint64(pk[8:16])
			lat = append(lat, now.Sub(goosc.NewTimetagFromTimetag(tt).Time()))
		}
	}
	runtime.ReadMemStats(&m1)
	b.StopTimer()
	stop()
	<-done
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-us")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(frames-50), "allocs/frame")
}
