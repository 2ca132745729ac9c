// The receipt's Print button. The page works without it: Ctrl+P prints the same.
document.getElementById("print").addEventListener("click", function () { window.print(); });
