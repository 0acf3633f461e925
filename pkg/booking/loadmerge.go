package booking

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Loading a business file over a stored business (ctl load): the file is
// the operator's, but most of a record is the owner's (OperatorFields).
// MergeLoaded takes the operator's fields from the file and keeps the
// owner's as stored, except those the operator names.

// loadKeeps are the fields a load handles apart: the inbox and feed token
// hashes (the file's when it gives one, else the stored one: a file
// without them means "no change"), and what the record keeps by itself
// (its history, the most crews it had, the owner's ask to go live).
var loadKeeps = []string{"inbox_token_sha256", "feed_token_sha256", "changes", "crews_ever", "approval_asked"}

// RecordFieldNames are the top-level fields of a business record
// (EncodeBusinessRecord's keys, every one, set or not), sorted.
func RecordFieldNames() []string {
	var names []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case tag == "-" && f.Anonymous, tag == "" && f.Anonymous:
				walk(f.Type)
			case tag != "" && tag != "-" && f.IsExported():
				names = append(names, tag)
			}
		}
	}
	walk(reflect.TypeFor[Business]())
	slices.Sort(names)
	return names
}

// OwnerFieldNames are the fields of a business record that are the
// owner's: every field but the operator's and those a load handles
// apart (loadKeeps), sorted.
func OwnerFieldNames() []string {
	var names []string
	for _, f := range RecordFieldNames() {
		if !isOperatorField(f) && !slices.Contains(loadKeeps, f) {
			names = append(names, f)
		}
	}
	return names
}

// FieldDiff is an owner's field whose value differs between the stored
// record and the file: each value as its JSON ("" when absent).
type FieldDiff struct {
	Field        string
	Stored, File string
	Written      bool // the operator named it: the file's value was written
}

// MergeLoaded returns the record a load of file stores over stored: the
// stored record with the file's operator fields (example, deposit,
// limits; approved and suspended only when the file sets them: they are
// otherwise ctl's approve and suspend), the file's token hashes when it
// gives them, and of the owner's fields only those named in ownerFields
// (the others stay as stored). diffs lists every owner field whose value
// differs, whether written or not. The deposit's simulated flag follows
// the merged preview. The result is validated.
func MergeLoaded(stored, file *Business, ownerFields []string) (merged *Business, diffs []FieldDiff, err error) {
	owners := OwnerFieldNames()
	for _, f := range ownerFields {
		if !slices.Contains(owners, f) {
			return nil, nil, fmt.Errorf("--owner-fields: %q is not an owner's field; want some of %s", f, strings.Join(owners, ", "))
		}
	}
	have, give := recordFields(stored), recordFields(file)
	set := func(f string) {
		if v, ok := give[f]; ok {
			have[f] = v
		} else {
			delete(have, f)
		}
	}
	for _, f := range OperatorFields {
		switch f {
		case "approved", "suspended":
			if give[f] == "true" {
				have[f] = "true"
			}
		default:
			set(f)
		}
	}
	for _, f := range []string{"inbox_token_sha256", "feed_token_sha256"} {
		if _, ok := give[f]; ok {
			have[f] = give[f]
		}
	}
	for _, f := range owners {
		if was := have[f]; was != give[f] && !(isAbsentJSON(was) && isAbsentJSON(give[f])) {
			written := slices.Contains(ownerFields, f)
			diffs = append(diffs, FieldDiff{Field: f, Stored: was, File: give[f], Written: written})
			if written {
				set(f)
			}
		}
	}
	doc, err := json.Marshal(rawFields(have))
	if err != nil {
		return nil, nil, err
	}
	var b Business
	rec := record{Business: &b}
	if err := json.Unmarshal(doc, &rec); err != nil {
		return nil, nil, fmt.Errorf("business %q: %w", file.Slug, err)
	}
	b.Private = rec.Private
	b.setDepositSimulated(b.Preview)
	if err := b.Validate(); err != nil {
		return nil, nil, err
	}
	return &b, diffs, nil
}

// isAbsentJSON: an absent field and its zero value are the same (the
// private fields are omitted when zero).
func isAbsentJSON(v string) bool {
	return v == "" || v == "null" || v == "false" || v == "0" || v == `""` || v == "[]"
}

func rawFields(m map[string]string) map[string]json.RawMessage {
	r := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		r[k] = json.RawMessage(v)
	}
	return r
}
