package replay

import (
	"errors"

	_ "github.com/gloved/gloved/devices/all" // a replay reads every shipped glove's recordings
	"github.com/gloved/gloved/devices/driver"
)

// Name is the device key's value for a replay.
const Name = "replay"

func init() {
	driver.Register(&driver.Driver{
		Name:    Name,
		Summary: "a recording played back through its glove's driver",
		Keys: []driver.Key{
			{Name: "recording", Doc: "the recording to play (required)"},
			{Name: "speed", Doc: `"1": at the pace it was recorded (the default); "max": as fast as it is read`},
		},
		Check:   check,
		Open:    open,
		Replays: true,
	})
}

func check(c *driver.Config) error {
	if c.Recording == "" {
		return errors.New("recording: a replay needs a recording file")
	}
	return nil
}

func open(c driver.Config) (*driver.Opened, error) {
	g, err := Open(c.Recording, c.Speed != "max")
	if err != nil {
		return nil, err
	}
	return &driver.Opened{Device: g, Info: g.GloveInfo(), Header: g.Header()}, nil
}
