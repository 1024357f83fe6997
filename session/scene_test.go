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
	moved, err := loadOne(SceneFile{Path: BuiltinScene, Scale: 2, Transform: []float64{1, 0, 0, 0, 0, 0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range plain.Verts {
		if want := v.Mul(2).Add(shift); !moved.Verts[i].Mgl().ApproxEqual(want.Mgl()) {
			t.Fatalf("vertex %d at %v, want %v", i, moved.Verts[i], want)
		}
	}
	if _, err := (SceneFile{Path: BuiltinScene, Scale: -1}).load(context.Background(), ""); err == nil || !strings.Contains(err.Error(), BuiltinScene) {
		t.Errorf("a negative scale gave %v", err)
	}
}
