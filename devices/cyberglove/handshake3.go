package cyberglove

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gloved/gloved/devices/serialport"
)

// rate3 is a III's 16-bit stream rate, samples a second (frame multiplier
// 3), what the daemon measures its line against.
const rate3 = 90

// start3 turns a CyberGlove III to its 16-bit USB stream, as the public
// drivers do: 1eu enables USB streaming, and 1S, which the next Read
// sends, starts the records. The rate is the unit's (90 Hz at frame
// multiplier 3): the III has no t to set, no status byte and no polled
// form of these records. The unit echoes 1S before its first stamp;
// Parser3 skips the echo.
func (g *Glove) start3(p serialport.Conn, sensors int) error {
	if err := g.enableUSB(p); err != nil {
		return err
	}
	if pp, ok := g.parser.(*Parser3); !ok || pp.Sensors != sensors {
		g.parser = NewParser3(sensors, &g.faults.Counts)
	}
	g.begin()
	g.startCmd = []byte("1S") // sent by the next Read
	return nil
}

// enableUSB sends 1eu and reads its acknowledgement. The reference gives
// the command, not its reply. A III echoes a command before answering and
// ends with 0x00 (its queries show it), so the echo 1eu and 0x00 is what
// is expected; but any reply that is not an error tail ('e' code, after
// the echo if there is one), and silence for the reply timeout, is taken
// as consent (a unit that acknowledges otherwise still streams, and the
// stream is what Parser3 checks). An error tail fails the open, naming
// the code.
func (g *Glove) enableUSB(p serialport.Conn) error {
	const cmd = "1eu"
	if _, err := p.Write([]byte(cmd)); err != nil {
		return fmt.Errorf("%q: %w", cmd, err)
	}
	r, err := g.readReply(p, `"1eu"`, 0)
	if err != nil && !errors.Is(err, ErrNoReply) {
		return err
	}
	tail := bytes.TrimPrefix(r, []byte(cmd))
	if i := bytes.IndexByte(tail, 'e'); i >= 0 && i+1 < len(tail) {
		return fmt.Errorf("%q: unit answered error %q (is this a CyberGlove III? an I/II takes device cyberglove)", cmd, tail[i+1])
	}
	return nil
}
