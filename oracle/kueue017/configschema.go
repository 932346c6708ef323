package main

// `oracle-kueue config-schema v1beta1|v1beta2` prints a JSON Schema (draft 2020-12) of Kueue v0.17.0's
// Configuration type of that version, walked by reflection over the Go type Kueue decodes its configuration file
// into (apis/config/<version>.Configuration): every field by its json name, embedded `inline` structs merged,
// unknown fields refused (Kueue's pkg/config decodes with serializer.EnableStrict), null accepted wherever Go's
// decoder takes it. tools/gen_kueue_config_schemas.py writes the result under schemas/config.kueue.x-k8s.io/.

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	configv1beta1 "sigs.k8s.io/kueue/apis/config/v1beta1"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
)

var (
	durationType     = reflect.TypeOf(metav1.Duration{})
	timeDurationType = reflect.TypeOf(time.Duration(0))
	unmarshalerType  = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

func configSchema(version string) error {
	var t reflect.Type
	switch version {
	case "v1beta1":
		t = reflect.TypeOf(configv1beta1.Configuration{})
	case "v1beta2":
		t = reflect.TypeOf(configapi.Configuration{})
	default:
		return fmt.Errorf("config-schema takes v1beta1 or v1beta2, not %q", version)
	}
	s := schemaOf(t, 0)
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	os.Stdout.Write(append(b, '\n'))
	return nil
}

func nullable(types ...string) map[string]any {
	return map[string]any{"type": append(types, "null")}
}

func schemaOf(t reflect.Type, depth int) map[string]any {
	if depth > 20 {
		return map[string]any{}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		return nullable("string")
	case t == timeDurationType:
		return nullable("integer")
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return map[string]any{} // its own JSON form (none in the Configuration but Duration)
	}
	switch t.Kind() {
	case reflect.String:
		return nullable("string")
	case reflect.Bool:
		return nullable("boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return nullable("integer")
	case reflect.Float32, reflect.Float64:
		return nullable("number")
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nullable("string")
		}
		return map[string]any{"type": []string{"array", "null"}, "items": schemaOf(t.Elem(), depth+1)}
	case reflect.Map:
		return map[string]any{"type": []string{"object", "null"}, "additionalProperties": schemaOf(t.Elem(), depth+1)}
	case reflect.Struct:
		props := map[string]any{}
		addFields(t, props, depth)
		return map[string]any{"type": []string{"object", "null"}, "properties": props, "additionalProperties": false}
	case reflect.Interface:
		return map[string]any{}
	}
	return map[string]any{}
}

func addFields(t reflect.Type, props map[string]any, depth int) {
	fields := make([]reflect.StructField, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		fields = append(fields, t.Field(i))
	}
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Index[0] < fields[j].Index[0] })
	for _, f := range fields {
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(","+opts+",", ",inline,")) {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(ft, props, depth+1)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		props[name] = schemaOf(f.Type, depth+1)
	}
}
