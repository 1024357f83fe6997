package session

import (
	"context"
	"strings"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

func loadOne(f SceneFile) (*env.Mesh, error) { return LoadScene([]SceneFile{f}, "") }

func TestBuiltinSceneIsPlacedLikeAFile(t *testing.T) {
	plain, err := loadOne(SceneFile{Path: BuiltinScene})
	if err != nil {
		t.Fatal(err)
	}
	shift := geom.Vec3{Z: 2}
	moved, err := loadOne(SceneFile{Path: BuiltinScene, Scale: new(2.0), Pose: []float64{0, 0, 2, 0, 0, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range plain.Verts {
		if want := v.Mul(2).Add(shift); !moved.Verts[i].Mgl().ApproxEqual(want.Mgl()) {
			t.Fatalf("vertex %d at %v, want %v", i, moved.Verts[i], want)
		}
	}
	if _, err := (SceneFile{Path: BuiltinScene, Scale: new(-1.0)}).load(context.Background(), "", nil); err == nil || !strings.Contains(err.Error(), BuiltinScene) {
		t.Errorf("a negative scale gave %v", err)
	}
}
