package daemon

import (
	"testing"

	"github.com/gloved/gloved/configs"
)

// FuzzParseConfig: any bytes as a config file give a config or an error,
// never a panic; an accepted config passes its own checks again.
func FuzzParseConfig(f *testing.F) {
	for _, name := range []string{"demo.toml", "cyberglove.toml", "replay.toml", "handshake.toml"} {
		text, err := configs.Files.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add([]byte("[[hand]]\nname = \"r\"\ndevice = \"sim\"\nwrist = [1e308, 0, 0, 0, 0, 0, 0]\n"))
	f.Add([]byte("[[hand]]\nname = \"r\"\ndevice = \"sim\"\n[scene]\nfiles = [{ path = \"x.obj\", scale = nan }]\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		c, err := ParseConfig("fuzz.toml", text)
		if err != nil {
			return
		}
		if err := c.check(); err != nil {
			t.Fatalf("an accepted config fails its checks: %v", err)
		}
		for i := range c.Hands {
			c.Spec(i)
		}
	})
}
