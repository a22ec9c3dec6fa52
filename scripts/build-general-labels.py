#!/usr/bin/env python3
"""Writes $SWIFTVISION_CACHE/labels/general_labels.json: general labels ("Dog", "Pet", "Vehicle") for
the 1000 ImageNet classes of the model zoo's classifier, derived from WordNet 3.0.

Sources, both pinned:
  * WordNet 3.0 from Debian's `wordnet-base` (/usr/share/wordnet/data.noun): ImageNet's class ids are
    WordNet 3.0 noun offsets (n02106662 = German shepherd); hypernym pointers `@` and `@i` give each
    class's ancestors.
  * The ImageNet-1k class order as WordNet ids: timm/data/_info/imagenet_synsets.txt from the timm
    wheel (downloaded with `pip download --no-deps`, checked by SHA-256, never imported). The order is
    checked against the classifier's own label file: each class name must be a WordNet lemma of the
    synset at the same position.

A general label is a display name, one or more WordNet synsets and, rarely, synsets it leaves out
(GENERAL_LABELS below); a class carries it when one of those synsets is in the class's hypernym
closure (the class included) and none of the left-out ones is. The
labeler's confidence of a general label is the sum of the softmax probabilities of its classes.

Offline and quiet on a second run: the file records a key of its inputs and is rewritten only when
one changed. Prints one line on stderr.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile

TIMM_REQUIREMENT = "timm==1.0.15"
TIMM_WHEEL = "timm-1.0.15-py3-none-any.whl"
TIMM_SHA256 = "5a3dc460c24e322ecc7fd1f3e3eb112423ddee320cb059cc1956fbc9731748ef"
TIMM_SYNSETS = "timm/data/_info/imagenet_synsets.txt"
WORDNET_NOUNS = os.environ.get("SWIFTVISION_WORDNET_NOUNS", "/usr/share/wordnet/data.noun")
CLASSIFIER = "efficientnet_lite0_classifier.tflite"
CLASSIFIER_LABELS = "imagenet_labels.txt"

# The general labels, in output order (a label's index is its position): display name in ML Kit's
# style, the WordNet 3.0 noun synsets it stands for (with their first lemma), and optionally synsets
# whose classes it leaves out.
GENERAL_LABELS = [
    ("Animal", ["n00015388"]),  # animal
    ("Mammal", ["n01861778"]),  # mammal
    ("Dog", ["n02084071"]),  # dog, domestic dog
    ("Cat", ["n02121620"]),  # cat, true cat (house cats, cougar, lynx)
    ("Big cat", ["n02127808"]),  # big cat (lion, tiger, leopard, …)
    ("Pet", ["n01317541"]),  # domestic animal
    ("Bird", ["n01503061"]),  # bird
    ("Fish", ["n02512053"]),  # fish
    ("Reptile", ["n01661091"]),  # reptile
    ("Snake", ["n01726692"]),  # snake
    ("Lizard", ["n01674464"]),  # lizard
    ("Turtle", ["n01662784"]),  # turtle
    ("Amphibian", ["n01627424"]),  # amphibian
    ("Insect", ["n02159955"]),  # insect
    ("Butterfly", ["n02274259"]),  # butterfly
    ("Spider", ["n01772222"]),  # spider
    ("Crustacean", ["n01974773"]),  # crustacean
    ("Monkey", ["n02484322"]),  # monkey
    ("Bear", ["n02131653"]),  # bear
    ("Rodent", ["n02329401"]),  # rodent
    ("Horse", ["n02374451"]),  # horse
    ("Person", ["n00007846"]),  # person
    ("Vehicle", ["n04524313", "n04019101"]),  # vehicle; public transport (WordNet's buses are not vehicles)
    ("Car", ["n02958343"]),  # car, automobile
    ("Bus", ["n02924116"]),  # bus
    ("Truck", ["n04490091"]),  # truck
    ("Bicycle", ["n02834778"]),  # bicycle
    ("Train", ["n04468005", "n03684823", "n02959942"]),  # train, locomotive, railway car
    ("Boat", ["n04530566"]),  # vessel, watercraft
    ("Aircraft", ["n02686568"]),  # aircraft
    ("Food", ["n00021265", "n07555863"]),  # food, nutrient; food, solid food
    ("Fruit", ["n07705931"]),  # edible fruit
    ("Vegetable", ["n07707451"]),  # vegetable
    ("Dessert", ["n07609840"]),  # dessert
    ("Baked goods", ["n07622061"]),  # baked goods
    ("Dish", ["n07557434"]),  # dish
    ("Drink", ["n07881800"]),  # beverage
    ("Plant", ["n00017222", "n13086908"]),  # plant, flora; plant part
    ("Flower", ["n11669921"]),  # flower
    ("Fungus", ["n12992868"]),  # fungus
    ("Furniture", ["n03405725"]),  # furniture
    ("Chair", ["n03001627"]),  # chair
    ("Table", ["n04379243"]),  # table
    ("Musical instrument", ["n03800933"]),  # musical instrument
    ("Clothing", ["n03051540"]),  # clothing
    ("Footwear", ["n03380867"]),  # footwear, footgear
    ("Headwear", ["n03502509"]),  # headdress, headgear
    ("Bag", ["n02773037"]),  # bag
    ("Sports equipment", ["n04285146"]),  # sports equipment
    ("Ball", ["n02778669"]),  # ball
    ("Toy", ["n03964744"]),  # plaything, toy
    ("Tool", ["n04451818"]),  # tool
    ("Weapon", ["n04565375"]),  # weapon
    ("Container", ["n03094503"], ["n04576211"]),  # container, but not wheeled vehicles (WordNet's cars are containers)
    ("Bottle", ["n02876657"]),  # bottle
    ("Kitchenware", ["n03621049", "n04381994"]),  # kitchen utensil; tableware
    ("Home appliance", ["n03528263"]),  # home appliance
    ("Electronic device", ["n03278248"]),  # electronic equipment
    ("Computer", ["n03082979"]),  # computer
    ("Phone", ["n04401088"]),  # telephone
    ("Timepiece", ["n04437953"]),  # timepiece (clocks, watches, hourglass)
    ("Lamp", ["n04263760"]),  # source of illumination
    ("Building", ["n02913152"]),  # building, edifice
    ("Dwelling", ["n03259505"]),  # dwelling, home
    ("Store", ["n04202417"]),  # shop, store
    ("Bridge", ["n02898711"]),  # bridge, span
    ("Landscape", ["n09287968"]),  # geological formation
]


def log(message):
    print(f"general-labels: {message}", file=sys.stderr)


def fail(message):
    log(message)
    sys.exit(1)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def timm_wheel(downloads):
    """The pinned timm wheel in `downloads`, downloaded first when missing or corrupt."""
    path = os.path.join(downloads, TIMM_WHEEL)
    if os.path.exists(path) and sha256(path) == TIMM_SHA256:
        return path
    os.makedirs(downloads, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=downloads, prefix=".download.") as folder:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "--dest", folder, TIMM_REQUIREMENT]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"`pip download {TIMM_REQUIREMENT}` failed: {result.stderr.strip()}")
        got = sha256(os.path.join(folder, TIMM_WHEEL))
        if got != TIMM_SHA256:
            fail(f"{TIMM_WHEEL} has SHA-256 {got}, pinned {TIMM_SHA256}")
        os.replace(os.path.join(folder, TIMM_WHEEL), path)
    return path


def read_wordnet(path):
    """Noun synsets of data.noun: offset → (lemmas, hypernym offsets)."""
    synsets = {}
    with open(path, encoding="latin-1") as file:
        for line in file:
            if line.startswith("  "):  # the licence header
                continue
            fields = line.split(" | ")[0].split()
            word_count = int(fields[3], 16)
            lemmas = [fields[4 + 2 * i] for i in range(word_count)]
            at = 4 + 2 * word_count
            pointers = [fields[at + 1 + 4 * i:at + 5 + 4 * i] for i in range(int(fields[at]))]
            hypernyms = [offset for symbol, offset, pos, _ in pointers if symbol in ("@", "@i") and pos == "n"]
            synsets[fields[0]] = (lemmas, hypernyms)
    return synsets


def closure(offset, synsets):
    """`offset` and all its hypernyms, instance hypernyms included."""
    seen, pending = set(), [offset]
    while pending:
        current = pending.pop()
        if current not in seen:
            seen.add(current)
            pending.extend(synsets[current][1])
    return seen


def classifier_names(models):
    """The classifier's class names, from the label file packed in the .tflite (None if not built)."""
    path = os.path.join(models, CLASSIFIER)
    if not os.path.exists(path):
        return None
    with zipfile.ZipFile(path) as archive:
        return archive.read(CLASSIFIER_LABELS).decode().splitlines()


def main():
    started = time.monotonic()
    cache = os.environ.get("SWIFTVISION_CACHE") or os.path.expanduser("~/.cache/swiftvision")
    output = os.path.join(cache, "labels", "general_labels.json")
    if not os.path.exists(WORDNET_NOUNS):
        fail(f"no {WORDNET_NOUNS}: install Debian's wordnet-base (scripts/install-system-packages.sh)")
    names = classifier_names(os.path.join(cache, "models"))
    if names is None:
        fail(f"no {CLASSIFIER} in {cache}/models: run scripts/build-models.sh first")
    with open(__file__, "rb") as script:
        inputs = [hashlib.sha256(script.read()).hexdigest(), TIMM_SHA256, sha256(WORDNET_NOUNS),
                  hashlib.sha256("\n".join(names).encode()).hexdigest()]
    key = hashlib.sha256(" ".join(inputs).encode()).hexdigest()
    try:
        with open(output) as file:
            if json.load(file).get("key") == key:
                log(f"up to date in {output}")
                return
    except (OSError, ValueError):
        pass

    with zipfile.ZipFile(timm_wheel(os.path.join(cache, "downloads"))) as archive:
        class_ids = archive.read(TIMM_SYNSETS).decode().split()
    synsets = read_wordnet(WORDNET_NOUNS)
    if len(class_ids) != len(names):
        fail(f"{TIMM_SYNSETS} has {len(class_ids)} classes, {CLASSIFIER} {len(names)}")
    for index, (class_id, name) in enumerate(zip(class_ids, names)):
        lemmas = [lemma.replace("_", " ").lower() for lemma in synsets[class_id[1:]][0]]
        if name.lower() not in lemmas:
            fail(f"class {index}: {CLASSIFIER} names it \"{name}\", not a lemma of {class_id} ({', '.join(lemmas)})")
    labels = [(label[0], label[1], label[2] if len(label) > 2 else []) for label in GENERAL_LABELS]
    for name, ids, left_out in labels:
        for synset in ids + left_out:
            if synset[1:] not in synsets:
                fail(f"{name}: {synset} is not a WordNet 3.0 noun synset")

    classes = []
    for class_id in class_ids:
        ancestors = closure(class_id[1:], synsets)
        classes.append([index for index, (_, ids, left_out) in enumerate(labels)
                        if any(synset[1:] in ancestors for synset in ids)
                        and not any(synset[1:] in ancestors for synset in left_out)])
    document = {
        "key": key,
        "sources": f"WordNet 3.0 hypernyms ({WORDNET_NOUNS}) of the ImageNet-1k classes in the order of "
                   f"{TIMM_REQUIREMENT} {TIMM_SYNSETS}",
        "labels": [{"name": name, "synsets": ids, "except": left_out} for name, ids, left_out in labels],
        "classSynsets": class_ids,
        "classLabels": classes,
    }
    os.makedirs(os.path.dirname(output), exist_ok=True)
    partial = output + ".partial"
    with open(partial, "w") as file:
        json.dump(document, file, separators=(",", ":"))
    os.replace(partial, output)
    covered = sum(1 for labels in classes if labels)
    log(f"wrote {output} ({len(GENERAL_LABELS)} labels; {covered} of {len(classes)} classes under one) "
        f"in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
