package profile_test

import (
	"fmt"
	"log"

	"github.com/gloved/gloved/osc/profile"
	_ "github.com/gloved/gloved/osc/profile/all"
)

// A table [[osc.profile]] name = "openxr", coords = "unreal", as the
// daemon reads it: the profile looked up by name, its coordinates and
// its own keys checked, configured for the hands; its contract then
// gives the palm's position in centimetres.
func Example() {
	p, ok := profile.Lookup("openxr")
	if !ok {
		log.Fatalf("no openxr among %v", profile.Names())
	}
	conv, err := p.Coords("unreal")
	if err != nil {
		log.Fatal(err)
	}
	if err := profile.Own(p, nil); err != nil {
		log.Fatal(err)
	}
	cfg, err := p.Configure(profile.Settings{Coords: conv, Hands: []string{"right"}})
	if err != nil {
		log.Fatal(err)
	}
	palm := cfg.Methods()[2]
	fmt.Println(profile.Names())
	fmt.Println(palm.Address("/gloved", "right"), palm.Args[0].Unit)
	_, err = p.Coords("blender")
	fmt.Println(err)
	// Output:
	// [gloved openxr vmc vrchat]
	// /gloved/right/xr/palm distance.cm
	// coords = "blender": want gloved (right-handed, Y up, metres), unity, unreal or ros
}
