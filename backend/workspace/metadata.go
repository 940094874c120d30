package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/metadata"
)

// PaperMetadata reads the paper's metadata.json for the editor: its values,
// which fields the user set, and where each came from.
func (w *Workspace) PaperMetadata(ctx context.Context, ref string) (metadata.Details, error) {
	return call(ctx, w, func(ctx context.Context) (metadata.Details, error) {
		if _, err := w.lib.DB().Paper(ctx, ref); err != nil {
			return metadata.Details{}, notFound(fmt.Errorf("no paper %s in this vault", ref))
		}
		return metadata.Load(ctx, w.lib.Root(), ref)
	})
}

// SaveMetadata writes the user's edit of fields to the paper's
// metadata.json (metadata.Save), brings the index up to date with it, and
// returns the paper as the library now shows it.
func (w *Workspace) SaveMetadata(ctx context.Context, ref string, v metadata.Values, fields []string) (index.Paper, error) {
	return call(ctx, w, func(ctx context.Context) (index.Paper, error) {
		if _, err := w.lib.DB().Paper(ctx, ref); err != nil {
			return index.Paper{}, notFound(fmt.Errorf("no paper %s in this vault", ref))
		}
		if err := metadata.Save(ctx, w.lib.Root(), ref, v, fields); err != nil {
			var inv *metadata.InvalidError
			if errors.As(err, &inv) {
				return index.Paper{}, invalid(err)
			}
			return index.Paper{}, err
		}
		if _, err := w.lib.Sync(ctx); err != nil {
			return index.Paper{}, fmt.Errorf("saved, but the index could not be updated: %w", err)
		}
		return w.lib.DB().Paper(ctx, ref)
	})
}
