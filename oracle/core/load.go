package core

// Reading manifests the way `wasplan plan` does (src/wasplan/documents/sources.py): files as given,
// directories walked recursively with every *.yaml, *.yml, *.json below them in sorted path order, "-" for
// stdin; multi-document YAML or JSON; `kind: List` (and typed lists such as PodList) expanded into their items.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Doc is one object of the input, with where it came from.
type Doc struct {
	File    string
	Index   int  // document index in the file, from 1 (items of a List share it)
	Item    int  // item index inside a List, from 1; 0 for a plain document
	Cluster bool // given with --cluster: the state before the plan
	Obj     map[string]interface{}
}

// Where names the document for messages: "file.yaml: document 2" or "file.yaml: document 1, item 3".
func (d Doc) Where() string {
	if d.Item > 0 {
		return fmt.Sprintf("%s: document %d, item %d", d.File, d.Index, d.Item)
	}
	return fmt.Sprintf("%s: document %d", d.File, d.Index)
}

func (d Doc) APIVersion() string { s, _ := d.Obj["apiVersion"].(string); return s }
func (d Doc) Kind() string       { s, _ := d.Obj["kind"].(string); return s }

func (d Doc) meta() map[string]interface{} {
	m, _ := d.Obj["metadata"].(map[string]interface{})
	return m
}

func (d Doc) Name() string      { s, _ := d.meta()["name"].(string); return s }
func (d Doc) Namespace() string { s, _ := d.meta()["namespace"].(string); return s }

var manifestSuffixes = []string{".yaml", ".yml", ".json"}

// ExpandPaths lists the files PATHS stand for, in wasplan's order.
func ExpandPaths(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		if p == "-" {
			files = append(files, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &InputError{fmt.Sprintf("no such file or directory: %s", p)}
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				if path != p && strings.HasPrefix(e.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
				return nil
			}
			for _, s := range manifestSuffixes {
				if strings.HasSuffix(e.Name(), s) {
					found = append(found, filepath.Clean(path))
					break
				}
			}
			return nil
		})
		if err != nil {
			return nil, &InputError{fmt.Sprintf("cannot read directory %s: %v", p, err)}
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// ReadDocs reads every object of the files PATHS stand for.
func ReadDocs(paths []string, cluster bool) ([]Doc, error) {
	files, err := ExpandPaths(paths)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, f := range files {
		var data []byte
		if f == "-" {
			data, err = io.ReadAll(os.Stdin)
			f = "<stdin>"
		} else {
			data, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, &InputError{fmt.Sprintf("cannot read %s: %v", f, err)}
		}
		got, err := parseDocs(f, data, cluster)
		if err != nil {
			return nil, err
		}
		docs = append(docs, got...)
	}
	return docs, nil
}

func parseDocs(file string, data []byte, cluster bool) ([]Doc, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []Doc
	for index := 1; ; index++ {
		var obj map[string]interface{}
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, &InputError{fmt.Sprintf("%s: document %d: not valid YAML or JSON: %v", file, index, err)}
		}
		if len(obj) == 0 {
			continue
		}
		kind, _ := obj["kind"].(string)
		items, isList := obj["items"].([]interface{})
		if isList && (kind == "List" || strings.HasSuffix(kind, "List")) {
			for i, it := range items {
				m, ok := it.(map[string]interface{})
				if !ok {
					return nil, &InputError{fmt.Sprintf("%s: document %d, item %d: not an object", file, index, i+1)}
				}
				out = append(out, Doc{File: file, Index: index, Item: i + 1, Cluster: cluster, Obj: m})
			}
			continue
		}
		out = append(out, Doc{File: file, Index: index, Cluster: cluster, Obj: obj})
	}
}
