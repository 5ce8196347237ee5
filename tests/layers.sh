# The import matrix of src/ (docs/architecture.md, "Folders and the import
# direction"): allowed FOLDER prints the folders FOLDER may include or call.
# Sourced by tests/layering.sh (includes) and tests/link-layering.sh (symbols).
allowed() {
	case $1 in
	base)   echo "base" ;;
	isa)    echo "base isa" ;;
	front)  echo "base isa front" ;;
	check)  echo "base isa front check" ;;
	sm50)   echo "base sm50" ;;
	emit)   echo "base sm50 emit" ;;
	lower)  echo "base isa front sm50 lower" ;;
	sasm)   echo "base sm50 emit sasm" ;;
	driver) echo "base isa front check sm50 emit lower sasm driver" ;;
	*)      echo "" ;;
	esac
}
